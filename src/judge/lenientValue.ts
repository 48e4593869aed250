/** The values the lenient JSON reader produces. */
export type LenientValue =
  | string
  | number
  | boolean
  | null
  | LenientValue[]
  | { [key: string]: LenientValue };

export type LenientObject = { [key: string]: LenientValue };
