/**
 * A request's own words, which ask nothing: "can you tell me the highest salary?", "i need the average price",
 * "could you list everyone in HR?" ask what follows them. Lower-cased text in, the question it asks out; a yes/no
 * question that starts the same way ("can you park here?") keeps its words.
 */
export function withoutRequest(text: string): string {
  return (
    text
      .replace(
        /^(?:i need|i want|i'd like|i would like|(?:can|could) you tell me|please tell me|tell me) (?:to know )?/,
        "",
      )
      // ("could you list everyone in HR?", "can you show me the red cars?": the request itself.)
      .replace(/^(?:(?:can|could|would|will) you (?:please )?|please )(?=(?:list|show|give|find|name|get)\b)/, "")
  );
}
