/**
 * Dropping a lock's MQTT session after its secret was reset or it was disabled (issue #11), and telling
 * the demo's in-process simulator a simulated lock's new secret. The module cannot reach the gateway
 * nor the simulator (modules never import them): main.ts wires the gateway's transport in with
 * `setSessionDropper`, demo.ts the fleet with `setSecretListener`; without them (tests without a
 * gateway, DEMO off) nothing happens and the change still takes effect at the lock's next connect,
 * which reads the row anew.
 */
type Dropper = (imei: string) => void;
type SecretListener = (imei: string, secret: string) => void;

let dropper: Dropper | undefined;
let secretListener: SecretListener | undefined;

/** Sets (or clears) what drops a device's live connection by IMEI. */
export function setSessionDropper(drop: Dropper | undefined): void {
  dropper = drop;
}

/** Drops the live connection of `imei`, if a dropper is wired and the device is connected here. */
export function dropSession(imei: string): void {
  dropper?.(imei);
}

/**
 * Sets (or clears) who hears of a newly issued device secret: the demo's simulated fleet, so a simulated
 * lock whose secret was reset reconnects with the new one. Never a log: the secret stays in memory.
 */
export function setSecretListener(listener: SecretListener | undefined): void {
  secretListener = listener;
}

/**
 * A lock's secret was reset (committed): the listener learns the new secret first, then the live
 * session is dropped, so the lock's reconnect already uses the new secret.
 */
export function secretReset(imei: string, secret: string): void {
  secretListener?.(imei, secret);
  dropSession(imei);
}
