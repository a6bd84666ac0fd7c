import { startRedisCluster } from '../test/helpers/redis-cluster.ts';
import { createClusterClient } from '../src/stores/redis/cluster.ts';
import { connectRedis } from '../src/stores/redis/connect.ts';
const c = await startRedisCluster();
const cl = createClusterClient(c.seeds.split(',').map((s) => ({ host: '127.0.0.1', port: Number(s.split(':')[1]) })));
console.log(await connectRedis(cl), cl.status);
await cl.set('{k}:x', '1');
const owner = c.masterOf('{k}')!;
console.log(owner, c.cli(owner, 'info', 'replication'), c.cli(owner, 'get', '{k}:x'), c.cli(owner, 'wait', '1', '2000'));
const t = Date.now();
await c.kill(owner);
for (let i = 0; i < 8; i++) {
  const r = await cl.get('{k}:x').catch((e) => 'ERR ' + e.message);
  console.log(Date.now() - t, cl.status, r, c.masterOf('{k}'));
  await new Promise((r) => setTimeout(r, 500));
}
cl.disconnect();
await c.stop();
