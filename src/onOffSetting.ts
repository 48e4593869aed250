/** On/off environment settings (EVALGATE_INJECTION_GUARD, EVALGATE_FOLLOW_SYMLINKS), read one way. */
import { oneLine } from "./shortText.js";

const ON = ["1", "true", "yes", "on"];
const OFF = ["0", "false", "no", "off"];

/**
 * The setting's value: true or false, undefined when it is unset or empty. Anything else is
 * refused through `refuse`, naming the setting, never read as either.
 */
export function onOffSetting(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  refuse: (message: string) => Error,
): boolean | undefined {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === "") return undefined;
  if (ON.includes(value)) return true;
  if (OFF.includes(value)) return false;
  const shown = JSON.stringify(oneLine(value.slice(0, 40)));
  throw refuse(`${name} must be on or off (1, true, yes, on / 0, false, no, off), not ${shown}`);
}
