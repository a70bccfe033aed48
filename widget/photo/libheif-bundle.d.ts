// The part of libheif-js's browser bundle (Emscripten + the HeifDecoder wrapper) widget/photo/heic.ts uses.
interface LibheifImage {
  get_width(): number;
  get_height(): number;
  /** Writes RGBA pixels into `target.data`, then calls back with it (or with null on failure). */
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (shown: unknown) => void): void;
  free(): void;
}

interface Libheif {
  ready: Promise<unknown>;
  HeifDecoder: new () => { decode(bytes: Uint8Array): LibheifImage[]; decoder: { delete(): void } | null };
}

declare module 'libheif-js/libheif-wasm/libheif-bundle.mjs' {
  const createLibheif: (options?: Record<string, unknown>) => Libheif;
  export default createLibheif;
}
