/** The ServiceError a call rejects with; the test fails when it resolves or throws anything else. */
import { expect } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';

export async function caught(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}
