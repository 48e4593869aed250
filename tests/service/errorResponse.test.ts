import { describe, expect, it } from "vitest";
import { CatalogError } from "../../src/criteria/errors.js";
import { EvalgateError } from "../../src/errors.js";
import { describeError } from "../../src/service/errorResponse.js";

describe("describeError", () => {
  it("answers a desk error with its own status, code and message", () => {
    const described = describeError(
      new EvalgateError("ACTION_NOT_OFFERED", "retry is not offered"),
    );
    expect(described.status).toBe(422);
    expect(described.body.error).toEqual({
      code: "ACTION_NOT_OFFERED",
      message: "retry is not offered",
    });
    expect(described.unexpected).toBe(false);
  });

  it("hides the message of an evalgate error whose code the service does not answer for", () => {
    const internal = new CatalogError("unexpected token", {
      source: "/srv/secret-folder/criteria.json",
      line: 3,
    });
    const described = describeError(internal);
    expect(described.status).toBe(500);
    expect(described.body.error.code).toBe("INTERNAL");
    expect(JSON.stringify(described.body)).not.toContain("secret-folder");
    expect(described.unexpected).toBe(true);
  });

  it("hides the message of an error that is not an evalgate error", () => {
    const described = describeError(new Error("connect ECONNREFUSED postgres://u:pw@db/x"));
    expect(described.status).toBe(500);
    expect(JSON.stringify(described.body)).not.toContain("pw@");
  });
});
