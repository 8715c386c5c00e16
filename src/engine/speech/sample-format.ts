/** The voice-sample containers tubekit accepts, named by their usual extension. */
export type SampleFormat = 'mp3' | 'wav' | 'm4a' | 'ogg' | 'webm';
