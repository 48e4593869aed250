#!/usr/bin/env node
// The evalgate command: runs the compiled CLI in dist/, found from this file's own location, so it
// behaves the same from any folder (the package's resources are found beside it; only the user's
// own files are read relative to the current folder). In a clone of the repository, `npm ci` and
// `npm test` build dist/ first (the `prepare` script and the test setup).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    "evalgate is not built: dist/src/cli/main.js is missing. In a clone of the repository, run `npm run build` (npm ci does it).\n",
  );
  process.exit(2);
}

const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
// Let stdout drain (a large report into a pipe), then exit: an idle keep-alive connection to the
// model server must not hold the process open.
process.stdout.write("", () => process.exit(code));
