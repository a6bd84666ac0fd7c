// Child process: the platform simulator, on its own event loop so upstream latency is not charged to the service.
import { startSimulator } from '../../sim/server.ts';

// Connections kept open across calls, as a real upstream's are (Node's own default of 5 s): with the tests' 1 s the
// service's client opens and closes a connection per upstream call, and the close lands before the service can
// answer, while the benchmark's direct call stops its clock at the last byte.
const sim = await startSimulator({ host: '127.0.0.1', port: 0, keepAliveTimeoutMs: 5000 });
process.send!({
  url: sim.url,
  fxtwitterUrl: sim.fxtwitterUrl,
  syndicationUrl: sim.syndicationUrl,
  xApiUrl: sim.xApiUrl,
  mediaHosts: sim.mediaHosts,
});
process.on('SIGTERM', () => {
  void sim.close().finally(() => process.exit(0));
});
