/** Channel ids of the live bench's made-up site (bench/live-site-server.ts): "UC" and 22 characters. */
export const benchChannelId = (n: number) => `UCbench${String(n).padStart(17, '0')}`;
