/** Test helpers of @hermes/client: a scripted JSON-RPC WebSocket server standing in for the daemon. */
export { startTestServer, type TestConn, type TestHandler, type TestServer } from './test-server.js';
