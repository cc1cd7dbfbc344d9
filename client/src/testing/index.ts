/**
 * Test helpers of @hermes/client: a scripted JSON-RPC WebSocket server standing in for the daemon,
 * and polling helpers that wait for a condition with a deadline instead of fixed sleeps.
 */
export { startTestServer, type TestConn, type TestHandler, type TestServer } from './test-server.js';
export { tick, waitFor, waitForFrame } from './wait.js';
