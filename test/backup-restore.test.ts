import { describeBackupAndRestore } from './support/backup-restore-suite.ts';

// Seed, back up with scripts/backup.ts, damage, restore with scripts/restore.ts: see the suite for the story.
describeBackupAndRestore('pglite');
