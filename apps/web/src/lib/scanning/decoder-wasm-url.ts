// Vite copies the decoder's .wasm into our build and gives its URL, so it is served from our
// origin (never a CDN). Pass it to the decode worker's init message or to configureWasm.
export { default as zxingReaderWasmUrl } from 'zxing-wasm/reader/zxing_reader.wasm?url';
