/**
 * One `langgraph dev` for a test file, judged by the Ollama-protocol test server that
 * EVALGATE_MODEL and OLLAMA_BASE_URL point it at, with the SDK's Client; its output is printed
 * when a test fails.
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, beforeEach, onTestFailed } from "vitest";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { type DevServer, startDevServer } from "./devServer.js";
import { ollamaProposalResponder } from "./proposalResponder.js";

export const DEV_MODEL = "devserver-judge:7b";
export const DEV_RFP = [
  "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.",
  "Grants of USD 50,000–150,000 over two years for flood resilience serving low-income households.",
].join("\n");

export interface DevServerSuite {
  readonly ollama: OllamaServer;
  readonly server: DevServer;
  readonly client: Client;
}

/** Starts the servers before the file's tests and stops them after. */
export function useDevServer(): DevServerSuite {
  let parts: DevServerSuite | undefined;
  const started = () => {
    if (parts === undefined) throw new Error("the dev server is not started yet");
    return parts;
  };
  beforeAll(async () => {
    const ollama = await startOllamaServer({
      models: [DEV_MODEL],
      responder: ollamaProposalResponder(0.85),
    });
    const env = { OLLAMA_BASE_URL: ollama.url, EVALGATE_MODEL: DEV_MODEL };
    const server = await startDevServer({ env }).catch(async (error: unknown) => {
      await ollama.close();
      throw error;
    });
    console.info(`langgraph dev answered /ok after ${server.startupMs} ms`);
    parts = { ollama, server, client: new Client({ apiUrl: server.url }) };
  });
  afterAll(async () => {
    try {
      await parts?.server.stop();
    } finally {
      await parts?.ollama.close();
    }
  });
  // `langgraph dev` restarts its server when a source file it loaded changes; wait it out.
  beforeEach(async () => {
    const { server } = started();
    await server.waitUntilReady();
    onTestFailed(() => {
      console.error(
        `langgraph dev output (last 4000 characters):\n${server.output().slice(-4000)}`,
      );
    });
  });
  return {
    get ollama() {
      return started().ollama;
    },
    get server() {
      return started().server;
    },
    get client() {
      return started().client;
    },
  };
}
