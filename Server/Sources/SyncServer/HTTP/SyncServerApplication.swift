import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// A ready-made sync server: a Hummingbird application with the sync routes, its database
/// connection pools as services, and the server's tables migrated before it listens.
public enum SyncServerApplication {
    /// The application listening on `host`:`port` (0: a free port, told to `onServerRunning`)
    /// over `databases` (one URL, or several to spread spaces across them).
    public static func make(
        configuration: SyncServerConfiguration, databases: [PostgresClient.Configuration], host: String, port: Int,
        connectionsPerDatabase: Int = 20, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let clients = databases.map { database -> PostgresClient in
            var database = database
            database.options.maximumConnections = connectionsPerDatabase
            return PostgresClient(configuration: database, backgroundLogger: logger)
        }
        let service = SyncService(configuration: configuration, clients: clients, logger: logger)
        let router = Router()
        SyncRoutes.add(to: router, service: service)
        var application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "shipyard-sync-server"),
            services: clients,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        application.beforeServerStarts { try await service.migrate() }
        return application
    }
}
