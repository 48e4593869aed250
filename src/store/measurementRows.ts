/**
 * The recorded `calibrate --compare` measurements (migration 16): one row each, the figures kept
 * as one JSON body checked against its schema when read back.
 */
import { sql } from "kysely";
import { z } from "zod";
import {
  CalibrationMeasurementSchema,
  type NewCalibrationMeasurement,
} from "../calibration/reportModel.js";
import { isRecord } from "../untrusted/json.js";
import { rowReader } from "./database.js";

/** The INSERT of one measurement under its id. */
export function insertMeasurement(id: string, measurement: NewCalibrationMeasurement) {
  const checked = CalibrationMeasurementSchema.parse({ ...measurement, id });
  const { id: _id, measuredAt, ...body } = checked;
  return {
    measurement: checked,
    statement: sql`INSERT INTO calibration_comparisons (id, measured_at, body)
      VALUES (${id}, ${measuredAt}, ${JSON.stringify(body)})`,
  };
}

export const LATEST_MEASUREMENT = sql`SELECT id, measured_at, body FROM calibration_comparisons
  ORDER BY measured_at DESC, id DESC LIMIT 1`;

/** A row read back as the measurement it recorded, its body's figures checked. */
export const measurementOf = rowReader(
  z.preprocess((fields) => {
    const { body, ...columns } = fields as { body?: unknown };
    return { ...(isRecord(body) ? body : {}), ...columns };
  }, CalibrationMeasurementSchema),
  (row) => `calibration comparison ${String(row.id)}`,
  { json: ["body"] },
);
