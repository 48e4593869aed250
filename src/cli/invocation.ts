/**
 * How the user started evalgate. npm and npx set npm_execpath, npm_command and
 * npm_lifecycle_event in the environment of what they run (and EDITOR=vi, whatever the user has):
 * with any of them set, the command was started through npm, and the commands evalgate prints
 * for the user to run next start with `npx evalgate`, which works in the project after `npm ci`.
 */
type Env = Readonly<Record<string, string | undefined>>;

/** True when npm or npx started the command. */
export function startedByNpm(env: Env): boolean {
  return ["npm_execpath", "npm_command", "npm_lifecycle_event"].some(
    (name) => (env[name]?.trim() ?? "") !== "",
  );
}

/** The command as the user ran it: `npx evalgate` under npm, else `evalgate`. */
export function evalgateCommand(env: Env): string {
  return startedByNpm(env) ? "npx evalgate" : "evalgate";
}
