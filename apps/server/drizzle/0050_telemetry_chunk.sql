-- Compact storage of closed days (compact.ts): one row per device, metric and UTC day, its readings encoded
-- by chunk-codec.ts. Readings move here from telemetry_reading; readings.ts reads both.
CREATE TABLE "telemetry_chunk" (
	"device_id" bigint NOT NULL,
	"metric" smallint NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"data" bytea NOT NULL,
	CONSTRAINT "telemetry_chunk_device_id_metric_day_pk" PRIMARY KEY("device_id","metric","day")
);
