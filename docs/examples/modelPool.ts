import { type Catalog, createChatModel, evaluateContent } from "evalgate";

/** One judge over three servers: two Ollama servers and an OpenAI-compatible one. */
export async function judgeOnPool(
  content: string,
  catalog: Catalog,
  gpu1 = "http://gpu1:11434",
  gpu2 = "http://gpu2:11434",
  gpu3 = "http://gpu3:8000/v1",
) {
  const judge = createChatModel("ollama:qwen2.5:7b-instruct", {
    servers: [
      `${gpu1}#slots=4`,
      { url: gpu2, slots: 8 },
      // Another kind of server in the same pool, with its own name for the model:
      `openai-compatible:Qwen/Qwen2.5-7B-Instruct@${gpu3}`,
    ],
  });
  return evaluateContent({ content, catalog, model: judge });
}
