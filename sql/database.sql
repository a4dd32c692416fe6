-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- database.replay_position
-- across companies: a server position
SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END AS position;

-- database.write_position
-- across companies: a server position
SELECT pg_current_wal_lsn()::text AS position;

