#!/usr/bin/env node
// The evalgate command: runs the compiled CLI in dist/, found from this file's own location, so it
// behaves the same from any folder (the package's resources are found beside it; only the user's
// own files are read relative to the current folder). An installed package ships dist/. In a clone
// of the repository (scripts/build.mjs beside bin/), the first run builds dist/ from the source
// (`npm run build` does the same, and `npm test` builds before it tests); the package itself runs
// no script when it is installed.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../dist/src/cli/main.js", import.meta.url);
const buildScript = fileURLToPath(new URL("../scripts/build.mjs", import.meta.url));
if (!existsSync(fileURLToPath(entry))) {
  if (!existsSync(buildScript)) {
    process.stderr.write(
      "evalgate is not built: dist/src/cli/main.js is missing from the installed package. Reinstall it (npm ci), or pack it again with `npm pack` in a clone of the repository.\n",
    );
    process.exit(2);
  }
  process.stderr.write(
    "evalgate: building dist/ from this clone's source (its first run; `npm run build` does it too)…\n",
  );
  try {
    // The compiler's messages go to stderr: stdout is the command's own (a report, JSON).
    execFileSync(process.execPath, [buildScript], { stdio: ["ignore", 2, 2] });
  } catch {
    process.stderr.write("evalgate: the build failed (see above); nothing was run.\n");
    process.exit(2);
  }
}

// The reader of the output went away (`evalgate show … | head`): the rest of the output is
// dropped, and the command ends with its own exit code, not a stack trace.
const READER_GONE = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);
process.stdout.on("error", (error) => {
  if (!READER_GONE.has(error.code)) throw error;
});

const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
// Let stdout drain (a large report into a pipe), then exit: an idle keep-alive connection to the
// model server must not hold the process open.
process.stdout.write("", () => process.exit(code));
