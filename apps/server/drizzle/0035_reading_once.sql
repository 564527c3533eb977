-- A reading is stored once: (device, metric, time) is unique in telemetry_reading, so a replayed message
-- adds nothing (the ingestion inserts with ON CONFLICT DO NOTHING and rolls up only what it inserted).
-- A unique index of a partitioned table must hold the partition key: "at" is part of it.
--
-- First the copies already stored are removed (the oldest row of each (device, metric, time) is kept; the
-- copies of one reading share its partition, so ctid orders them), and what they added to the roll-ups is
-- taken off again (count and sum; a copy carries its original's value, so low, high and last stand).
CREATE TABLE "telemetry_reading_copies" (
	"device_id" bigint NOT NULL,
	"metric" smallint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL
);
--> statement-breakpoint
WITH gone AS (
	DELETE FROM "telemetry_reading" a USING "telemetry_reading" b
	WHERE a.device_id = b.device_id AND a.metric = b.metric AND a.at = b.at
		AND a.tableoid = b.tableoid AND a.ctid > b.ctid
	RETURNING a.device_id, a.metric, a.at, a.value
)
INSERT INTO "telemetry_reading_copies" SELECT device_id, metric, at, value FROM gone;
--> statement-breakpoint
UPDATE "telemetry_rollup" r SET n = r.n - x.n, total = r.total - x.t
FROM (
	SELECT device_id, metric, 1 AS grain, to_timestamp(floor(extract(epoch FROM at) / 300) * 300) AS bucket,
		count(*)::int AS n, sum(value) AS t
	FROM "telemetry_reading_copies" GROUP BY 1, 2, 3, 4
	UNION ALL
	SELECT device_id, metric, 2, to_timestamp(floor(extract(epoch FROM at) / 3600) * 3600), count(*)::int, sum(value)
	FROM "telemetry_reading_copies" GROUP BY 1, 2, 3, 4
	UNION ALL
	-- a day starts at the server's local midnight: the day bucket is the one holding the reading
	SELECT c.device_id, c.metric, 3, d.bucket, count(*)::int, sum(c.value)
	FROM "telemetry_reading_copies" c JOIN "telemetry_rollup" d
		ON d.device_id = c.device_id AND d.metric = c.metric AND d.grain = 3
		AND d.bucket <= c.at AND d.bucket > c.at - interval '1 day'
	GROUP BY 1, 2, 3, 4
) x
WHERE r.device_id = x.device_id AND r.metric = x.metric AND r.grain = x.grain AND r.bucket = x.bucket;
--> statement-breakpoint
DROP TABLE "telemetry_reading_copies";
--> statement-breakpoint
DROP INDEX IF EXISTS "telemetry_reading_device_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "telemetry_reading_once" ON "telemetry_reading" USING btree ("device_id","metric","at");
