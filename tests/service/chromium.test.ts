import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  findChromium,
  installedChromiums,
  launchChromiumAt,
  playwrightBrowserFolders,
  playwrightChromiums,
  searchChromium,
} from "./chromium.js";

/**
 * Which browser the browser tests launch: folders of stand-in executables (shell scripts) named and
 * laid out like installed browsers and Playwright's downloads, and this machine's real browser
 * behind a wrapper that logs each launch (tests/service/browser.test.ts drives it for real).
 */
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "evalgate-chromium-"));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let folders = 0;
function folder(): string {
  folders += 1;
  const made = join(scratch, `case-${folders}`);
  mkdirSync(made);
  return made;
}

/** An executable stand-in; `answer` is what it prints for --version (nothing: it fails). */
function browser(path: string, answer = "Chromium 140.0.1 stand-in", mode = 0o755): string {
  mkdirSync(join(path, ".."), { recursive: true });
  const body = answer === "" ? "echo 'requires the chromium snap' >&2; exit 1" : `echo '${answer}'`;
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

describe("an installed Chromium or Chrome", () => {
  it("is looked up by name on PATH in the order of the names, then at the fixed paths", () => {
    const base = folder();
    const first = join(base, "first");
    const second = join(base, "second");
    const googleChrome = browser(join(first, "google-chrome"));
    const chromium = browser(join(second, "chromium"));
    browser(join(second, "chromium-browser"), undefined, 0o644);
    mkdirSync(join(first, "chromium"));
    const stable = browser(join(second, "google-chrome-stable"));
    const fixed = browser(join(base, "usr", "bin", "chromium"));
    const found = installedChromiums({
      path: ["", join(base, "missing"), first, second].join(":"),
      installed: [join(base, "snap", "bin", "chromium"), fixed, chromium],
      playwright: [],
    });
    expect(found).toEqual([chromium, googleChrome, stable, fixed]);
  });
});

describe("a Chromium that Playwright installed", () => {
  it("is the newest revision by number, full Chromium before the headless shell", () => {
    const root = folder();
    const at = (...parts: string[]) => join(root, ...parts);
    const old = browser(at("chromium-999", "chrome-linux", "chrome"));
    const older = browser(at("chromium-1100", "chrome-linux", "chrome"));
    const current = browser(at("chromium-1200", "chrome-linux64", "chrome"));
    const shell = browser(
      at("chromium_headless_shell-1200", "chrome-headless-shell-linux64", "chrome-headless-shell"),
    );
    const newestShell = browser(
      at("chromium_headless_shell-1300", "chrome-linux", "headless_shell"),
    );
    const mac = browser(
      at("chromium-1250", "chrome-mac", "Chromium.app", "Contents", "MacOS", "Chromium"),
    );
    const testing = browser(
      at(
        "chromium-1260",
        "chrome-mac-arm64",
        "Google Chrome for Testing.app",
        "Contents",
        "MacOS",
        "Google Chrome for Testing",
      ),
    );
    browser(at("chromium-1400", "chrome-linux", "chrome"), undefined, 0o644);
    browser(at("chromium-tip-of-tree-1500", "chrome-linux", "chrome"));
    browser(at("firefox-1600", "firefox", "firefox"));
    browser(at("chromium-1700", "notes", "chrome"));
    expect(playwrightChromiums([at("absent"), root])).toEqual([
      newestShell,
      testing,
      mac,
      current,
      shell,
      older,
      old,
    ]);
  });

  it("is looked for where Playwright keeps its browsers", () => {
    expect(playwrightBrowserFolders({ PLAYWRIGHT_BROWSERS_PATH: "/opt/pw" }, "/home/ada")).toEqual([
      "/opt/pw",
    ]);
    expect(playwrightBrowserFolders({ PLAYWRIGHT_BROWSERS_PATH: "0" })[0]).toMatch(
      /node_modules\/playwright-core\/\.local-browsers$/,
    );
    expect(playwrightBrowserFolders({}, "/home/ada", "linux")).toEqual([
      "/home/ada/.cache/ms-playwright",
    ]);
    expect(playwrightBrowserFolders({ XDG_CACHE_HOME: "/xdg" }, "/home/ada", "linux")).toEqual([
      "/xdg/ms-playwright",
    ]);
    expect(playwrightBrowserFolders({}, "/Users/ada", "darwin")).toEqual([
      "/Users/ada/Library/Caches/ms-playwright",
    ]);
  });
});

describe("the search", () => {
  it("passes over an installed browser that cannot say its version", async () => {
    const base = folder();
    browser(join(base, "bin", "chromium-browser"), "");
    const chrome = browser(join(base, "bin", "google-chrome"), "Google Chrome 139.0.7258.5");
    const pw = browser(join(base, "pw", "chromium-1200", "chrome-linux64", "chrome"));
    const roots = { path: join(base, "bin"), installed: [], playwright: [join(base, "pw")] };
    expect(await searchChromium(roots)).toEqual({ path: chrome, source: "installed" });
    chmodSync(chrome, 0o644);
    expect(await searchChromium(roots)).toEqual({ path: pw, source: "playwright" });
    rmSync(join(base, "pw"), { recursive: true });
    expect(await searchChromium(roots)).toBeUndefined();
  });

  it("takes EVALGATE_TEST_CHROMIUM first, and refuses one that cannot be run", async () => {
    const base = folder();
    const mine = browser(join(base, "my chrome", "chrome"));
    expect(await findChromium({ EVALGATE_TEST_CHROMIUM: mine, PATH: "" })).toEqual({
      path: mine,
      source: "EVALGATE_TEST_CHROMIUM",
    });
    const notExecutable = browser(join(base, "plain"), undefined, 0o644);
    for (const path of [notExecutable, join(base, "absent"), base]) {
      await expect(findChromium({ EVALGATE_TEST_CHROMIUM: path })).rejects.toThrow(
        `EVALGATE_TEST_CHROMIUM is ${path}, which is not an executable file`,
      );
    }
  });
});

describe("launching", () => {
  let real: string;

  beforeAll(async () => {
    real = (await findChromium()).path;
  }, 300_000);

  /** A wrapper that logs its arguments, then behaves as `script` says (REAL: the real browser). */
  function wrapper(script: string): { path: string; launches: () => string[] } {
    const base = folder();
    const log = join(base, "launches.log");
    const path = join(base, "chromium");
    writeFileSync(path, `#!/bin/sh\necho "$*" >> '${log}'\nREAL='${real}'\n${script}\n`);
    chmodSync(path, 0o755);
    return {
      path,
      launches: () => readFileSync(log, "utf8").trim().split("\n"),
    };
  }

  const NO_SANDBOX = `for a in "$@"; do [ "$a" = --no-sandbox ] && exec "$REAL" "$@"; done
echo '[FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox!' >&2; exit 1`;

  it("launches again without the sandbox when Chromium has no usable one", async () => {
    const browser = wrapper(NO_SANDBOX);
    const launched = await launchChromiumAt(browser.path, true);
    try {
      const page = await launched.newPage();
      await page.setContent("<p id=answer>rendered</p>");
      expect(await page.textContent("#answer")).toBe("rendered");
    } finally {
      await launched.close();
    }
    const [first, second, ...more] = browser.launches();
    expect(first).not.toContain("--no-sandbox");
    expect(second).toContain("--no-sandbox");
    expect(second).toContain("--disable-background-networking");
    expect(more).toEqual([]);
  }, 60_000);

  it("launches once, without the sandbox, when told so", async () => {
    const browser = wrapper('exec "$REAL" "$@"');
    await (await launchChromiumAt(browser.path, false)).close();
    expect(browser.launches()).toHaveLength(1);
    expect(browser.launches()[0]).toContain("--no-sandbox");
  }, 60_000);

  it("does not retry a failure that is not about the sandbox", async () => {
    const browser = wrapper("echo 'Missing X server or $DISPLAY' >&2; exit 1");
    await expect(launchChromiumAt(browser.path, true)).rejects.toThrow(/Missing X server/);
    expect(browser.launches()).toHaveLength(1);
  }, 60_000);
});
