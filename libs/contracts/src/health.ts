/** Every app answers a readiness check on `<service>.health.check` once its database answers. */
export type HealthSubject = `${string}.health.check`;

export interface HealthReply {
  service: string;
  status: string;
}

export type HealthContract = { [S in HealthSubject]: { request: Record<string, never>; reply: HealthReply } };
