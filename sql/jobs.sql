-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- jobs.lock_queue_definitions
SELECT pg_advisory_xact_lock(hashtextextended('jobs.queue_definitions', 0));

