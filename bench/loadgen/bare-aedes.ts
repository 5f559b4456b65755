/**
 * The broker's own cost, for bench/connections.ts's baseline: bare aedes (the embedded broker's
 * library) on 127.0.0.1:`argv[2]`, every CONNECT accepted, every PUBLISH acknowledged and dropped
 * (no subscribers, no persistence beyond aedes' default in-memory one). Prints "listening" when ready.
 */
import { createServer } from 'node:net';
import { Aedes } from 'aedes';

const broker = await Aedes.createBroker({
  authenticate: (_client, _user, _password, done) => done(null, true),
  authorizePublish: (_client, _packet, done) => done(null),
});
const server = createServer(broker.handle);
server.listen(Number(process.argv[2]), '127.0.0.1', () => console.log('listening'));
