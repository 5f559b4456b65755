ALTER TABLE "air_switch_alerts" ADD COLUMN "acknowledge_note" text;
