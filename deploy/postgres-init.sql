-- One database per service: no service reads another's tables.
CREATE DATABASE paykit_gateway;
CREATE DATABASE paykit_customers;
CREATE DATABASE paykit_external_accounts;
CREATE DATABASE paykit_payments;
CREATE DATABASE paykit_wallet_auth;
CREATE DATABASE paykit_cards;
CREATE DATABASE paykit_webhooks;
