import Simulation

SimulateCommand.main()
