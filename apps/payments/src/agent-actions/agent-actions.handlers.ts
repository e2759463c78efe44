import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AGENT_ACTIONS_SUBJECTS,
  AgentAction,
  AgentActionDecisionMessage,
  AgentActionRef,
  AgentCreateQuoteMessage,
  AgentExecuteQuoteMessage,
  AgentTransferInMessage,
  AgentTransferOutMessage,
  AgentUsageMessage,
  AgentUsageReply,
  ListAgentActionsMessage,
  MessageEnvelope,
  Page,
  Quote,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { AgentActionsService } from './agent-actions.service';

@Controller()
export class AgentActionsHandlers {
  constructor(private readonly actions: AgentActionsService) {}

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.transferOut)
  transferOut(@Payload(new EnvelopePipe(AgentTransferOutMessage)) { ctx, payload }: MessageEnvelope<AgentTransferOutMessage>): Promise<AgentAction> {
    return this.actions.transferOut(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.transferIn)
  transferIn(@Payload(new EnvelopePipe(AgentTransferInMessage)) { ctx, payload }: MessageEnvelope<AgentTransferInMessage>): Promise<AgentAction> {
    return this.actions.transferIn(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.executeQuote)
  executeQuote(@Payload(new EnvelopePipe(AgentExecuteQuoteMessage)) { ctx, payload }: MessageEnvelope<AgentExecuteQuoteMessage>): Promise<AgentAction> {
    return this.actions.executeQuote(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.createQuote)
  createQuote(@Payload(new EnvelopePipe(AgentCreateQuoteMessage)) { ctx, payload }: MessageEnvelope<AgentCreateQuoteMessage>): Promise<Quote> {
    return this.actions.createQuote(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.get)
  get(@Payload(new EnvelopePipe(AgentActionRef)) { ctx, payload }: MessageEnvelope<AgentActionRef>): Promise<AgentAction> {
    return this.actions.get(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.list)
  list(@Payload(new EnvelopePipe(ListAgentActionsMessage)) { ctx, payload }: MessageEnvelope<ListAgentActionsMessage>): Promise<Page<AgentAction>> {
    return this.actions.list(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.approve)
  approve(@Payload(new EnvelopePipe(AgentActionRef)) { ctx, payload }: MessageEnvelope<AgentActionRef>): Promise<AgentAction> {
    return this.actions.approve(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.reject)
  reject(@Payload(new EnvelopePipe(AgentActionDecisionMessage)) { ctx, payload }: MessageEnvelope<AgentActionDecisionMessage>): Promise<AgentAction> {
    return this.actions.reject(ctx, payload);
  }

  @MessagePattern(AGENT_ACTIONS_SUBJECTS.usage)
  usage(@Payload(new EnvelopePipe(AgentUsageMessage)) { ctx, payload }: MessageEnvelope<AgentUsageMessage>): Promise<AgentUsageReply> {
    return this.actions.usage(
      ctx,
      payload.agents.map((agent) => agent.agentId),
    );
  }
}
