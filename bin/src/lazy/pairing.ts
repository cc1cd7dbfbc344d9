/** Loaded by `hermes pairing` when it runs. */
export { neutralizeInlineText, PairingStore } from '@hermes/core/messaging';
