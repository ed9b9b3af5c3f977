/** The ways into a flow. `info` is the flow-information route, which passes the same gate. */
export type Door = 'run' | 'enqueue' | 'grpc' | 'cron' | 'event' | 'info';

/** Doors that carry a body, and so have a body ceiling (`max_message_bytes` per door). */
export type BodyDoor = 'run' | 'enqueue' | 'grpc' | 'events';

export function bodyDoorOf(door: Door): BodyDoor | undefined {
  switch (door) {
    case 'run':
    case 'enqueue':
    case 'grpc':
      return door;
    case 'event':
      return 'events';
    default:
      return undefined;
  }
}
