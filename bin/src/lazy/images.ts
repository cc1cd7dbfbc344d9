/** Loaded by `hermes chat` only when a one-shot attaches images (`--image`). */
export { MediaStore, resolveImages } from '@hermes/core/images';
