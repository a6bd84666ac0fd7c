// `npm run sim`: start the platform simulator on PORT (default 8090) and print the upstream base URLs.
import { startSimulator } from './server.ts';

const sim = await startSimulator({ port: Number(process.env.PORT ?? 8090), host: process.env.HOST ?? '127.0.0.1' });
console.log(`threadmark platform simulator on ${sim.url}`);
console.log(`  THREADMARK_FXTWITTER_URL=${sim.fxtwitterUrl}`);
console.log(`  THREADMARK_SYNDICATION_URL=${sim.syndicationUrl}`);
console.log(`  THREADMARK_X_API_URL=${sim.xApiUrl}`);
console.log(`  control: GET ${sim.url}/__sim/calls, POST/DELETE ${sim.url}/__sim/faults, POST ${sim.url}/__sim/reset`);

const stop = () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
