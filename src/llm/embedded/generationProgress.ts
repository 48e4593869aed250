/** The embedded model's generation progress (tokens, tokens per second) for a terminal. */

export interface GenerationProgress {
  model: string;
  activeCalls: number;
  tokens: number;
  tokensPerSecond: number;
  done: boolean;
}

export type GenerationListener = (progress: GenerationProgress) => void;

const listeners = new Set<GenerationListener>();
let activeCalls = 0;

export function onGenerationProgress(listener: GenerationListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function startGenerationMeter(model: string) {
  activeCalls++;
  const started = performance.now();
  let tokens = 0;
  let finished = false;
  const emit = (done: boolean) => {
    const seconds = Math.max((performance.now() - started) / 1000, 0.001);
    const progress = { model, activeCalls, tokens, tokensPerSecond: tokens / seconds, done };
    for (const listener of listeners) listener(progress);
  };
  return {
    tokens(count: number): void {
      tokens += count;
      emit(false);
    },
    finish(): void {
      if (finished) return;
      finished = true;
      activeCalls--;
      emit(true);
    },
  };
}
