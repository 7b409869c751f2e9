// PubSubProtocol
