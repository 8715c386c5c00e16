/** The shape of a key of the JSON a prompt asks for (answer-shape.ts reads them, shaped-answer.ts fills them). */
export type Shape =
  | { kind: 'text' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'list'; item: Shape }
  | { kind: 'object'; fields: FieldSpec[] }
  /** One of the options the prompt lists ("one of: wide, medium, close", "wide|close"); "" when none can be chosen. */
  | { kind: 'enum'; options: string[] }
  /** The prompt named the key but not its shape. */
  | { kind: 'any' };

export interface FieldSpec {
  name: string;
  shape: Shape;
}
