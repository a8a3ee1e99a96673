-- Search (issue 14, ADR 012): trigram similarity for typo tolerance. PostgreSQL ships pg_trgm in its contrib
-- package; PGlite loads it as an extension when the instance is created (src/server/db/client.ts). Drizzle cannot
-- express an extension, hence this hand-written migration before the generated one that uses it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
