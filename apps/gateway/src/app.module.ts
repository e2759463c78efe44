import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { PersistenceModule, SANDBOX_STATE_TABLES, SandboxStateStore } from '@paykit/persistence';
import { AuthGuard } from './auth/auth.guard';
import { AuthInvalidations } from './auth/auth-invalidations';
import { CredentialsRepository } from './auth/credentials.repository';
import { CredentialsService } from './auth/credentials.service';
import { AgentAccessTokenEntity } from './auth/entities/agent-access-token.entity';
import { ApiTokenEntity } from './auth/entities/api-token.entity';
import { PlatformEntity } from './auth/entities/platform.entity';
import { CustomersController } from './customers/customers.controller';
import { BeneficialOwnersController } from './beneficial-owners/beneficial-owners.controller';
import { DocumentsController } from './documents/documents.controller';
import { EndUserTermsPageController } from './kyc/end-user-terms-page.controller';
import { KycPageController } from './kyc/kyc-page.controller';
import { VerificationsController } from './verifications/verifications.controller';
import { HttpErrorFilter } from './errors/http-error.filter';
import { HealthController } from './health/health.controller';
import { ContractValidationPipe } from './http/contract-validation.pipe';
import { RootController } from './http/root.controller';
import { CreatePlatformsAndTokens1732300200000 } from './migrations/1732300200000-CreatePlatformsAndTokens';
import { AddTokenPermissions1764070000000 } from './migrations/1764070000000-AddTokenPermissions';
import { CreateRateLimitWindows1764300000000 } from './migrations/1764300000000-CreateRateLimitWindows';
import { RateLimiter } from './rate-limits/rate-limiter';
import { RateLimitStore } from './rate-limits/rate-limit-store';
import { TokensController } from './tokens/tokens.controller';
import { AgentOperationsController } from './agents/agent-operations.controller';
import { AgentsController } from './agents/agents.controller';
import { AgentsRepository } from './agents/agents.repository';
import { AgentsService } from './agents/agents.service';
import { AgentDeviceCodeEntity } from './agents/entities/agent-device-code.entity';
import { AgentEntity } from './agents/entities/agent.entity';
import { CreateAgents1764320000000 } from './migrations/1764320000000-CreateAgents';
import { ConfigController } from './platform-config/config.controller';
import { SandboxWebhooksController } from './webhooks/sandbox-webhooks.controller';
import { WebhookDeliveriesController } from './webhooks/webhook-deliveries.controller';
import { InternalAccountsController } from './payments/internal-accounts.controller';
import { TransactionsController, TransfersController } from './payments/transfers.controller';
import { ExchangeRatesController } from './quotes/exchange-rates.controller';
import { QuotesController } from './quotes/quotes.controller';
import { QuoteAuthorizationController } from './quotes/quote-authorization.controller';
import { ReceiverLookupController } from './quotes/receiver-lookup.controller';
import { SandboxPaymentsController, TransactionActionsController } from './quotes/transaction-actions.controller';
import { CryptoController, InvitationsController, UmaProvidersController, VaspsController } from './quotes/directory.controller';
import { CustomerExternalAccountsController } from './external-accounts/customer-external-accounts.controller';
import { PlatformExternalAccountsController } from './external-accounts/platform-external-accounts.controller';
import { DiscoveriesController } from './discoveries/discoveries.controller';
import { AuthCredentialsController } from './wallet-auth/auth-credentials.controller';
import { AuthSessionsController } from './wallet-auth/auth-sessions.controller';
import { DelegatedKeysController } from './wallet-auth/delegated-keys.controller';
import { WalletAccountsController } from './wallet-auth/wallet-accounts.controller';
import { SandboxScaController, ScaController } from './wallet-auth/sca.controller';
import { CardsController } from './cards/cards.controller';
import { SandboxCardsController } from './cards/sandbox-cards.controller';
import { CardRevealPageController } from './cards/card-reveal-page.controller';
import { SandboxClockController } from './sandbox-clock/sandbox-clock.controller';
import { SandboxStablecoinsController, StablecoinsController } from './stablecoins/stablecoins.controller';
import { CreateSandboxRequestLog1764330000000 } from './migrations/1764330000000-CreateSandboxRequestLog';
import { RequestLogEntryEntity } from './request-log/entities/request-log-entry.entity';
import { RequestLogController } from './request-log/request-log.controller';
import { RequestLogRecorder } from './request-log/request-log.recorder';
import { RequestLogRepository } from './request-log/request-log.repository';
import { CreateSandboxFaults1765100000000 } from './migrations/1765100000000-CreateSandboxFaults';
import { SandboxFaultGuard } from './sandbox-faults/sandbox-fault.guard';
import { SandboxFaultsController } from './sandbox-faults/sandbox-faults.controller';
import { SandboxFaultsRepository } from './sandbox-faults/sandbox-faults.repository';
import { SandboxFaultsService } from './sandbox-faults/sandbox-faults.service';
import { McpController } from './mcp/mcp.controller';
import { CreateSandboxSnapshots1766100000000 } from './migrations/1766100000000-CreateSandboxSnapshots';
import { SandboxSnapshotsController } from './sandbox-snapshots/sandbox-snapshots.controller';
import { SandboxSnapshotsRepository } from './sandbox-snapshots/sandbox-snapshots.repository';
import { GATEWAY_STATE_TABLES, SandboxSnapshotsService } from './sandbox-snapshots/sandbox-snapshots.service';
import { SandboxSeedService } from './sandbox-snapshots/sandbox-seed.service';

/** The gateway: all HTTP, authentication, validation and the error envelope; no business data. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'gateway',
      entities: [PlatformEntity, ApiTokenEntity, AgentAccessTokenEntity, AgentEntity, AgentDeviceCodeEntity, RequestLogEntryEntity],
      migrations: [
        CreatePlatformsAndTokens1732300200000,
        AddTokenPermissions1764070000000,
        CreateRateLimitWindows1764300000000,
        CreateAgents1764320000000,
        CreateSandboxRequestLog1764330000000,
        CreateSandboxFaults1765100000000,
        CreateSandboxSnapshots1766100000000,
      ],
    }),
  ],
  controllers: [
    RootController,
    HealthController,
    CustomersController,
    VerificationsController,
    BeneficialOwnersController,
    DocumentsController,
    KycPageController,
    EndUserTermsPageController,
    ConfigController,
    InternalAccountsController,
    TransfersController,
    TransactionsController,
    ExchangeRatesController,
    QuotesController,
    QuoteAuthorizationController,
    ReceiverLookupController,
    TransactionActionsController,
    SandboxPaymentsController,
    UmaProvidersController,
    VaspsController,
    CryptoController,
    InvitationsController,
    WebhookDeliveriesController,
    SandboxWebhooksController,
    CustomerExternalAccountsController,
    PlatformExternalAccountsController,
    DiscoveriesController,
    AuthCredentialsController,
    AuthSessionsController,
    DelegatedKeysController,
    WalletAccountsController,
    ScaController,
    SandboxScaController,
    CardsController,
    SandboxCardsController,
    CardRevealPageController,
    StablecoinsController,
    SandboxStablecoinsController,
    SandboxClockController,
    SandboxFaultsController,
    McpController,
    SandboxSnapshotsController,
    TokensController,
    RequestLogController,
    AgentOperationsController,
    AgentsController,
  ],
  providers: [
    AuthInvalidations,
    CredentialsService,
    CredentialsRepository,
    RequestLogRepository,
    RequestLogRecorder,
    AgentsService,
    AgentsRepository,
    RateLimitStore,
    RateLimiter,
    SandboxFaultsRepository,
    SandboxFaultsService,
    SandboxSnapshotsRepository,
    SandboxSnapshotsService,
    SandboxSeedService,
    SandboxStateStore,
    { provide: SANDBOX_STATE_TABLES, useValue: GATEWAY_STATE_TABLES },
    { provide: APP_GUARD, useClass: AuthGuard },
    // After authentication: a sandbox caller's call meets its platform's sandbox faults.
    { provide: APP_GUARD, useClass: SandboxFaultGuard },
    { provide: APP_PIPE, useClass: ContractValidationPipe },
    { provide: APP_FILTER, useClass: HttpErrorFilter },
  ],
  exports: [CredentialsService],
})
export class GatewayAppModule {}
