// PubSubBroker
