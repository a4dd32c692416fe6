-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- rate_limits.add
INSERT INTO rate_limit_counters AS c (key, points, granted, window_ends_at)
SELECT k, $2::int, $2::int, now() + make_interval(secs => $3::int) FROM unnest($1::text[]) AS k ORDER BY k
ON CONFLICT (key) DO UPDATE SET
  points = CASE WHEN c.window_ends_at > now() THEN c.points + excluded.points ELSE excluded.points END,
  granted = excluded.points,
  window_ends_at = CASE WHEN c.window_ends_at > now() THEN c.window_ends_at ELSE excluded.window_ends_at END
RETURNING key, points, granted, ceil(extract(epoch FROM window_ends_at - now()) * 1000)::int AS "msLeft";

-- rate_limits.claim
INSERT INTO rate_limit_counters AS c (key, points, granted, window_ends_at)
VALUES ($1, LEAST($2::int, $3::int), LEAST($2::int, $3::int), now() + make_interval(secs => $4::int))
ON CONFLICT (key) DO UPDATE SET
  points = CASE WHEN c.window_ends_at > now() THEN GREATEST(c.points, LEAST(c.points + $2::int, $3::int)) ELSE excluded.points END,
  granted = CASE WHEN c.window_ends_at > now() THEN GREATEST(c.points, LEAST(c.points + $2::int, $3::int)) - c.points ELSE excluded.points END,
  window_ends_at = CASE WHEN c.window_ends_at > now() THEN c.window_ends_at ELSE excluded.window_ends_at END
RETURNING key, points, granted, ceil(extract(epoch FROM window_ends_at - now()) * 1000)::int AS "msLeft";

-- rate_limits.read
SELECT key, points, ceil(extract(epoch FROM window_ends_at - now()) * 1000)::int AS "msLeft"
FROM rate_limit_counters WHERE key = ANY ($1::text[]) AND window_ends_at > now();

-- rate_limits.set
INSERT INTO rate_limit_counters (key, points, granted, window_ends_at) VALUES ($1, 1, 1, now() + make_interval(secs => $2::int))
ON CONFLICT (key) DO UPDATE SET points = 1, granted = 1, window_ends_at = excluded.window_ends_at;

-- rate_limits.sweep
DELETE FROM rate_limit_counters WHERE ctid = ANY (ARRAY(
SELECT ctid FROM rate_limit_counters WHERE window_ends_at < now() LIMIT $1));

