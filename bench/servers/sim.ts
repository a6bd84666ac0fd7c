// Child process: the platform simulator, on its own event loop so upstream latency is not charged to the service.
import { startSimulator } from '../../sim/server.ts';

const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
process.send!({
  url: sim.url,
  fxtwitterUrl: sim.fxtwitterUrl,
  syndicationUrl: sim.syndicationUrl,
  xApiUrl: sim.xApiUrl,
});
process.on('SIGTERM', () => {
  void sim.close().finally(() => process.exit(0));
});
