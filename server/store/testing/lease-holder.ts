/**
 * Test support: a separate process that takes a lease as itself and holds
 * it (printing its holder id) until it is killed.
 * argv: <stateRoot> <leaseName> <ttlMs>
 */
import { openStore } from "../store.ts";

const [stateRoot, name, ttlMs] = process.argv.slice(2);
const store = openStore(stateRoot);
const holder = store.leases.processHolder();
if (!store.leases.tryAcquire(name, holder, Number(ttlMs))) throw new Error(`lease ${name} is taken`);
process.stdout.write(`${holder}\n`);
setInterval(() => undefined, 60_000);
