/** npm and npx set npm_* variables (and EDITOR=vi): under them the hints say `npx evalgate`. */
type Env = Readonly<Record<string, string | undefined>>;

export function startedByNpm(env: Env): boolean {
  return ["npm_execpath", "npm_command", "npm_lifecycle_event"].some(
    (name) => (env[name]?.trim() ?? "") !== "",
  );
}

/** The command as the user ran it: `npx evalgate` under npm, else `evalgate`. */
export function evalgateCommand(env: Env): string {
  return startedByNpm(env) ? "npx evalgate" : "evalgate";
}
