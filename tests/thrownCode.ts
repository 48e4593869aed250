/**
 * The `code` of what `run` throws, or undefined when it throws nothing or a value without one: for
 * asserting the code of an error family member (`expect(thrownCode(() => …)).toBe("SCALE_INVALID")`).
 */
export function thrownCode(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  }
  return undefined;
}
