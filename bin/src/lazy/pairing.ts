/** Loaded by `hermes pairing` when it runs. */
export { PairingStore } from '@hermes/core/messaging';
