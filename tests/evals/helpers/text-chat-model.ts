/**
 * A scripted plain-text chat model for the baseline tests: returns queued replies in order (or a
 * responder's reply for the prompt), records every prompt, and reports token usage.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

export class TextChatModel extends BaseChatModel {
  readonly prompts: string[] = [];
  temperature = 0;

  constructor(
    private readonly replies: string[] = [],
    private readonly responder?: (prompt: string) => string,
  ) {
    super({});
  }

  _llmType(): string {
    return "text-scripted";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages[messages.length - 1];
    const prompt = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
    this.prompts.push(prompt);
    const text = this.replies.length > 0 ? this.replies.shift()! : this.responder?.(prompt);
    if (text === undefined) throw new Error(`TextChatModel: no reply queued for call ${this.prompts.length}`);
    const message = new AIMessage({
      content: text,
      usage_metadata: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
    });
    return { generations: [{ text, message }] };
  }
}
