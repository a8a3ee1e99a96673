import { errorResponseSchema } from '../shared/schemas/common.ts';

/** The OpenAPI security requirement of a route that reads the bearer token (the scheme is named in openapi.ts). */
export const bearerAuth = [{ bearerAuth: [] }];

/** Response schemas for the error statuses a route can answer, every one in the one error shape. */
export function errorResponses<const Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    Status,
    typeof errorResponseSchema
  >;
}
