/**
 * Credentials and endpoints for the backbones, read from the environment — never part of the
 * configuration (Studio and run metadata must not show secrets). The one reader of these variables.
 */

export interface BackboneEnv {
  vertexaiCredentialsPath?: string;
  googleApplicationCredentials?: string;
  vertexaiLocation?: string;
  vertexaiProject?: string;
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  ollamaBaseUrl?: string;
}

/** Reads backbone credentials/endpoints from the environment (the only place that does). */
export function readBackboneEnv(env: NodeJS.ProcessEnv = process.env): BackboneEnv {
  const pick = (name: string) => (env[name] && env[name]!.trim() !== "" ? env[name]!.trim() : undefined);
  return {
    vertexaiCredentialsPath: pick("VERTEXAI_CREDENTIALS_PATH"),
    googleApplicationCredentials: pick("GOOGLE_APPLICATION_CREDENTIALS"),
    vertexaiLocation: pick("VERTEXAI_LOCATION"),
    vertexaiProject: pick("VERTEXAI_PROJECT"),
    openaiBaseUrl: pick("OPENAI_BASE_URL"),
    openaiApiKey: pick("OPENAI_API_KEY"),
    ollamaBaseUrl: pick("OLLAMA_BASE_URL"),
  };
}
