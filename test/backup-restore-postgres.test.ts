import { describeBackupAndRestore } from './support/backup-restore-suite.ts';

// The same story as test/backup-restore.test.ts on PostgreSQL (pg_dump / pg_restore), when TEST_DATABASE_URL is set.
describeBackupAndRestore('postgres');
