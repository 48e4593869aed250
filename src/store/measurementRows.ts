/** The recorded `calibrate --compare` measurements, each a JSON body checked when read back. */
import { sql } from "kysely";
import { z } from "zod";
import {
  CalibrationMeasurementSchema,
  type NewCalibrationMeasurement,
} from "../calibration/reportModel.js";
import { isRecord } from "../untrusted/json.js";
import { rowReader } from "./database.js";

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

export const measurementOf = rowReader(
  z.preprocess((fields) => {
    const { body, ...columns } = fields as { body?: unknown };
    return { ...(isRecord(body) ? body : {}), ...columns };
  }, CalibrationMeasurementSchema),
  (row) => `calibration comparison ${String(row.id)}`,
  { json: ["body"] },
);
