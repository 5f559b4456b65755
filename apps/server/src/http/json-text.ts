/**
 * Data already serialized as JSON text (e.g. built by PostgreSQL with row_to_json, db/json-rows.ts), answered by
 * registerEndpoint inside the success envelope without being parsed and written out again: a list of
 * 100 rows spent a third of the server's CPU on reading each column, building objects and
 * JSON.stringify (bench/fleet.ts). The text must be what JSON.stringify would write for a value of the
 * endpoint's response schema (`T`, a phantom type: the handler's result type still checks).
 */
export class JsonText<T> {
  /** Never set: only ties the text to the type it stands for. */
  declare readonly value?: T;

  constructor(readonly text: string) {}
}

/** The success envelope around `data` (JSON text), byte for byte as JSON.stringify writes `{ success, code, message, data }`. */
export function envelopeText(data: JsonText<unknown>): string {
  return `{"success":true,"code":"OK","message":"success","data":${data.text}}`;
}
