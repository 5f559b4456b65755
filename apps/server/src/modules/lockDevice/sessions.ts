/**
 * Dropping a lock's MQTT session after its secret was reset or it was disabled (issue #11). The module
 * cannot reach the gateway (modules never import it): main.ts wires the gateway's transport in with
 * `setSessionDropper`; without one (tests without a gateway, DEMO off before start) nothing is dropped
 * and the change still takes effect at the lock's next connect, which reads the row anew.
 */
type Dropper = (imei: string) => void;

let dropper: Dropper | undefined;

/** Sets (or clears) what drops a device's live connection by IMEI. */
export function setSessionDropper(drop: Dropper | undefined): void {
  dropper = drop;
}

/** Drops the live connection of `imei`, if a dropper is wired and the device is connected here. */
export function dropSession(imei: string): void {
  dropper?.(imei);
}
