/**
 * The recorded `calibrate --compare` measurements (migration 16): one row each, the figures kept
 * as one JSON body checked against its schema when read back.
 */
import { sql } from "kysely";
import { z } from "zod";
import {
  type CalibrationMeasurement,
  CalibrationMeasurementSchema,
  type NewCalibrationMeasurement,
} from "../calibration/reportModel.js";
import { readUntrustedJson } from "../untrusted/json.js";
import { storeDataInvalid } from "./errors.js";

const MeasurementColumns = z.object({ id: z.string(), measured_at: z.string(), body: z.string() });

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

/** A row read back as the measurement it recorded (a row that is not one is a storeDataInvalid). */
export function measurementOf(row: unknown): CalibrationMeasurement {
  const columns = MeasurementColumns.safeParse(row);
  if (!columns.success) {
    throw storeDataInvalid(`a calibration comparison row: ${z.prettifyError(columns.error)}`);
  }
  const { id, measured_at: measuredAt, body } = columns.data;
  const parsed = readUntrustedJson(body);
  if (!parsed.ok) throw storeDataInvalid(`calibration comparison ${id}: its body is not JSON`);
  const measurement = CalibrationMeasurementSchema.safeParse({
    ...(typeof parsed.value === "object" && parsed.value !== null ? parsed.value : {}),
    id,
    measuredAt,
  });
  if (!measurement.success) {
    throw storeDataInvalid(
      `calibration comparison ${id}: ${z.prettifyError(measurement.error).slice(0, 500)}`,
    );
  }
  return measurement.data;
}
