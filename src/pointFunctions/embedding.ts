import { z } from "zod";
import type { AsyncPointFunctionSpec, PointFunctionContext } from "./contract.js";
import { NO_REFERENCE, optionsOf, referenceArgs, scored } from "./reference.js";
import { cosineSimilarity } from "./similarity.js";

/** Meanings compared through the server's embeddings; an unreachable server is the point's error, never a score. */
export const MAX_EMBED_INPUT_CHARS = 100_000;

const embeddingArgs = referenceArgs({ model: z.string().trim().min(1).max(200).optional() });
type EmbeddingArgs = z.infer<typeof embeddingArgs>;

function isZero(vector: readonly number[]): boolean {
  return vector.every((value) => value === 0);
}

async function similarity(
  text: string,
  reference: string,
  model: string | undefined,
  context: PointFunctionContext,
): Promise<number | { error: string }> {
  if (context.embedder === undefined) {
    return { error: "no model server to embed with (run it through a FunctionRegistry)" };
  }
  for (const [what, value] of [
    ["the text", text],
    ["the reference", reference],
  ] as const) {
    if (value.length > MAX_EMBED_INPUT_CHARS) {
      return {
        error: `${what} is ${value.length.toLocaleString("en-US")} characters, more than the ${MAX_EMBED_INPUT_CHARS.toLocaleString("en-US")} sent to be embedded`,
      };
    }
  }
  if (text.trim() === "") return 0;
  const [textVector = [], referenceVector = []] = await context.embedder.embed(
    [text, reference],
    model,
  );
  if (isZero(textVector) || isZero(referenceVector)) {
    return { error: "the model answered a zero vector: no direction to compare" };
  }
  return Math.min(1, Math.max(0, cosineSimilarity(textVector, referenceVector)));
}

const embedding_similarity: AsyncPointFunctionSpec<EmbeddingArgs> = {
  argsSchema: embeddingArgs,
  expects:
    "a reference text, { reference?, min?, model? }, or nothing (the evaluation's reference)",
  description:
    "Cosine similarity of the text's and the reference's embeddings from the model server " +
    "(below 0 counts as 0; an empty text is 0); with min, whether it reaches min.",
  evaluate: async (text, args, context) => {
    const options = optionsOf(args);
    const reference = options.reference ?? context.reference;
    if (reference === undefined) return { error: NO_REFERENCE };
    const score = await similarity(text, reference, options.model, context);
    if (typeof score !== "number") return score;
    return scored(score, options.min);
  },
};

export const EMBEDDING_POINT_FUNCTIONS = { embedding_similarity } as const;
